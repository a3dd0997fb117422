/** English for src/features/registries; assembled in ../en-app.ts. */

export const registries = {
  title: 'Registries',
  providersLater:
    'Outside registry providers (Amazon ECR, Google GCR, Harbor, …) come with a later release; for now images go to Slipway’s own registry.',
  slipway: {
    title: 'Slipway registry',
    intro:
      'This server is a container registry too: push the workspace’s images under its prefix and clusters pull them from here.',
    loadError: 'The registry could not be loaded.',
    prefix: 'Image prefix',
    copy: 'Copy prefix',
    copied: 'Copied to the clipboard.',
    selectToCopy: 'The prefix is selected: copy it with Ctrl+C (⌘C on a Mac).',
    insecure:
      'Served over plain HTTP: buildah needs --tls-verify=false, and docker or a cluster’s container runtime must list {{host}} as an insecure registry.',
    howTo: 'How to log in and push',
    howToBody:
      'Log in with any user name and a service account token as the password: developer pushes and pulls, viewer pulls only.',
    buildah: 'With buildah',
    docker: 'With docker',
    serviceAccounts: 'Service accounts',
  },
  images: {
    title: 'Images',
    loadError: 'The images could not be loaded.',
    search: 'Search by image',
    emptyTitle: 'No images yet',
    emptyBody:
      'Push an image under the prefix above, or let quick setup make an application whose first pipeline run builds and pushes one.',
    noMatchTitle: 'No images match',
    noMatchBody: 'Try another name.',
    columns: {
      image: 'Image',
      tags: 'Tags',
      size: 'Size',
      lastPushed: 'Last pushed',
    },
    open: 'Show the tags of {{name}}',
  },
  tags: {
    title: 'Tags of {{name}}',
    loadError: 'The tags could not be loaded.',
    empty: 'This image has no tags: its manifests are reachable by digest only.',
    reference: 'Pull',
    close: 'Close',
    columns: {
      tag: 'Tag',
      digest: 'Digest',
      size: 'Size',
      pushed: 'Pushed',
    },
    index: 'Several platforms',
    copyDigest: 'Copy digest of {{tag}}',
    copied: 'Digest copied to the clipboard.',
    selectToCopy: 'The clipboard is not available here: the full digest is in the digest’s title.',
    delete: 'Delete tag',
    deleteName: 'Delete tag {{tag}}',
    deleteTitle: 'Delete tag {{tag}}?',
    deleteBody:
      '{{reference}} will no longer pull. The image it names stays, reachable by its digest and by its other tags.',
  },
} as const;
