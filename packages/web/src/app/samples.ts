/** A starting point for a new pipeline: two tasks with inline steps and one param. */
export const SAMPLE_PIPELINE = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata:
  name: hello
spec:
  params:
    - name: greeting
      type: string
      default: Hello
  tasks:
    - name: build
      params:
        - name: greeting
          value: $(params.greeting)
      taskSpec:
        params:
          - name: greeting
        steps:
          - name: say
            image: alpine
            script: |
              echo "$(params.greeting) from build"
    - name: test
      runAfter: [build]
      taskSpec:
        steps:
          - name: check
            image: alpine
            script: |
              echo "tests passed"
`;
