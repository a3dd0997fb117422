/** Runs a shell script, in the source workspace when one is bound. */
export const RUN_SCRIPT_TASK = `apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: run-script
spec:
  description: Runs a shell script.
  params:
    - name: script
      type: string
      description: The script to run with sh.
    - name: image
      type: string
      description: The image the step names (the local executor runs on the host).
      default: alpine
  workspaces:
    - name: source
      description: The files the script works on.
      optional: true
  steps:
    - name: run
      image: $(params.image)
      workingDir: $(workspaces.source.path)
      script: |
        #!/bin/sh
        set -e
        $(params.script)
`;
