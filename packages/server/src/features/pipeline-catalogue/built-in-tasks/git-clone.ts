/** The step env var that carries the URL; the run executor checks it against SLIPWAY_GIT_ALLOW. */
export const GIT_URL_ENV = 'SLIPWAY_GIT_URL';

/**
 * Clones a Git repository with the git CLI; a private one with a token from a secret (HTTPS) or
 * an SSH key from a secret (ssh:// or user@host:path), as a Kubernetes ssh-auth Secret holds it.
 */
export const GIT_CLONE_TASK = `apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: git-clone
  annotations:
    slipway.dev/description: Clone a Git repository into the output workspace
spec:
  description: Clones a Git repository with the git CLI into the output workspace.
  params:
    - name: url
      type: string
      description: The repository URL (https, http, ssh://, user@host:path or file).
    - name: revision
      type: string
      description: A branch, tag or commit.
      default: main
    - name: depth
      type: string
      description: How many commits to fetch; 0 for the whole history.
      default: "1"
    - name: tokenSecret
      type: string
      description: The name of a secret whose "token" key authenticates to a private repository.
      default: git-token
    - name: sshSecret
      type: string
      description: >-
        The name of a secret whose "ssh-privatekey" key authenticates over SSH; with a "known_hosts"
        key the server's host key is checked against it.
      default: git-ssh
    - name: sslVerify
      type: string
      description: Set to "false" to skip the check of the server's TLS certificate (a self-signed one).
      default: "true"
  workspaces:
    - name: output
      description: Where the repository is cloned.
  results:
    - name: commit
      description: The commit that was checked out.
    - name: url
      description: The repository that was cloned.
  steps:
    - name: clone
      image: alpine/git
      env:
        # Slipway checks this URL against SLIPWAY_GIT_ALLOW before the step starts; the script
        # reads it from here, so the value is never spliced into the script's text.
        - name: SLIPWAY_GIT_URL
          value: $(params.url)
        - name: GIT_TOKEN
          valueFrom:
            secretKeyRef:
              name: $(params.tokenSecret)
              key: token
              optional: true
        - name: GIT_SSH_KEY
          valueFrom:
            secretKeyRef:
              name: $(params.sshSecret)
              key: ssh-privatekey
              optional: true
        - name: GIT_KNOWN_HOSTS
          valueFrom:
            secretKeyRef:
              name: $(params.sshSecret)
              key: known_hosts
              optional: true
      workingDir: $(workspaces.output.path)
      script: |
        #!/bin/sh
        set -eu
        export GIT_TERMINAL_PROMPT=0
        case "$SLIPWAY_GIT_URL" in
          # a repository on a path the step can read (an operator's read-only mirror) belongs to
          # another user than the step's: trust it for this clone only
          file://*|/*) git config --global --add safe.directory '*' ;;
        esac
        URL="$SLIPWAY_GIT_URL"
        if [ -n "\${GIT_TOKEN:-}" ]; then
          case "$URL" in
            https://*) URL="https://x-access-token:\${GIT_TOKEN}@\${URL#https://}" ;;
            http://*) URL="http://x-access-token:\${GIT_TOKEN}@\${URL#http://}" ;;
          esac
        fi
        if [ -n "\${GIT_SSH_KEY:-}" ]; then
          # the key lives outside the workspace and is removed when the step ends
          SSH_DIR="$(mktemp -d)"
          trap 'rm -rf "$SSH_DIR"' EXIT
          printf '%s\\n' "$GIT_SSH_KEY" | tr -d '\\r' > "$SSH_DIR/key"
          chmod 600 "$SSH_DIR/key"
          if [ -n "\${GIT_KNOWN_HOSTS:-}" ]; then
            printf '%s\\n' "$GIT_KNOWN_HOSTS" > "$SSH_DIR/known_hosts"
            CHECK="-o UserKnownHostsFile=$SSH_DIR/known_hosts -o StrictHostKeyChecking=yes"
          else
            CHECK="-o UserKnownHostsFile=/dev/null -o StrictHostKeyChecking=no"
          fi
          export GIT_SSH_COMMAND="ssh -F /dev/null -i $SSH_DIR/key -o IdentitiesOnly=yes -o BatchMode=yes -o LogLevel=ERROR $CHECK"
        fi
        DEPTH="$(params.depth)"
        git init -q .
        # origin is the URL without the token: nothing secret stays in .git/config
        git remote remove origin 2>/dev/null || true
        git remote add origin "$SLIPWAY_GIT_URL"
        if [ "$DEPTH" = "0" ]; then
          git -c http.sslVerify="$(params.sslVerify)" fetch -q -- "$URL" "$(params.revision)"
        else
          git -c http.sslVerify="$(params.sslVerify)" fetch -q --depth "$DEPTH" -- "$URL" "$(params.revision)"
        fi
        git -c advice.detachedHead=false checkout -q FETCH_HEAD
        git rev-parse HEAD | tr -d '\\n' > "$(results.commit.path)"
        printf '%s' "$SLIPWAY_GIT_URL" > "$(results.url.path)"
        echo "Cloned $SLIPWAY_GIT_URL at $(git rev-parse --short HEAD)"
`;
