/** Builds an OCI image with buildah (chroot isolation, vfs storage) and pushes it. */
export const BUILDAH_TASK = `apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: buildah
spec:
  description: Builds an OCI image from a Dockerfile with buildah and pushes it.
  params:
    - name: IMAGE
      type: string
      description: The image reference to build and push.
    - name: CONTEXT
      type: string
      description: The build context, relative to the source workspace.
      default: .
    - name: DOCKERFILE
      type: string
      description: The Dockerfile, relative to the source workspace.
      default: ./Dockerfile
    - name: TLS_VERIFY
      type: string
      description: Verify the registry's TLS certificate.
      default: "true"
    - name: BUILD_ARGS
      type: array
      description: Dockerfile build arguments, each KEY=value (e.g. BASE_IMAGE=registry.example.com/base/node:20).
      default: []
    - name: AUTH_SECRET
      type: string
      description: >-
        The workspace secret whose .dockerconfigjson key holds the registries' credentials, for
        pulling base images and pushing (by default the one image pulls use); none: anonymous.
      default: docker-config
  workspaces:
    - name: source
  results:
    - name: IMAGE_DIGEST
      description: The digest of the pushed image.
    - name: IMAGE_URL
      description: The image reference that was pushed.
  steps:
    - name: build-and-push
      image: quay.io/buildah/stable
      workingDir: $(workspaces.source.path)
      args: ["$(params.BUILD_ARGS[*])"]
      env:
        - name: REGISTRY_AUTH
          valueFrom:
            secretKeyRef:
              name: $(params.AUTH_SECRET)
              key: .dockerconfigjson
              optional: true
      script: |
        #!/bin/sh
        set -eu
        if ! command -v buildah >/dev/null 2>&1; then
          echo "buildah is not installed on this host" >&2
          exit 127
        fi
        BUILDAH_ROOT="\${BUILDAH_ROOT:-$HOME/.slipway/buildah/root}"
        BUILDAH_RUNROOT="\${BUILDAH_RUNROOT:-$HOME/.slipway/buildah/runroot}"
        mkdir -p "$BUILDAH_ROOT" "$BUILDAH_RUNROOT"
        mkdir -p "$HOME/.slipway/buildah"
        AUTH=""
        # each build argument (the step's args) becomes --build-arg=KEY=value
        count=$#
        for arg in "$@"; do set -- "$@" "--build-arg=$arg"; done
        shift "$count"
        if [ -n "\${REGISTRY_AUTH:-}" ]; then
          AUTHFILE="$HOME/.slipway/buildah/auth.json"
          (umask 077 && printf '%s' "$REGISTRY_AUTH" > "$AUTHFILE")
          AUTH="--authfile=$AUTHFILE"
        fi
        buildah --storage-driver vfs --root "$BUILDAH_ROOT" --runroot "$BUILDAH_RUNROOT" \\
          bud --isolation chroot --tls-verify="$(params.TLS_VERIFY)" $AUTH "$@" \\
          -f "$(params.DOCKERFILE)" -t "$(params.IMAGE)" "$(params.CONTEXT)"
        buildah --storage-driver vfs --root "$BUILDAH_ROOT" --runroot "$BUILDAH_RUNROOT" \\
          push --tls-verify="$(params.TLS_VERIFY)" $AUTH --digestfile "$(results.IMAGE_DIGEST.path)" \\
          "$(params.IMAGE)" "docker://$(params.IMAGE)"
        printf '%s' "$(params.IMAGE)" > "$(results.IMAGE_URL.path)"
`;
