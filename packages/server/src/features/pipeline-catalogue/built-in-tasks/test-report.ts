/** Reads a JUnit XML report: counts tests and failures, fails when any test failed. */
export const TEST_REPORT_TASK = `apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: test-report
spec:
  description: Counts the tests and failures of a JUnit XML report and fails when any test failed.
  params:
    - name: REPORT_PATH
      type: string
      description: The JUnit XML file, relative to the source workspace.
      default: junit.xml
  workspaces:
    - name: source
  results:
    - name: tests
      description: How many test cases the report holds.
    - name: failures
      description: How many of them failed.
  steps:
    - name: report
      image: alpine
      workingDir: $(workspaces.source.path)
      script: |
        #!/bin/sh
        set -eu
        REPORT="$(params.REPORT_PATH)"
        if [ ! -f "$REPORT" ]; then
          echo "test report $REPORT not found" >&2
          exit 1
        fi
        TESTS=$(grep -o '<testcase[ >/]' "$REPORT" | wc -l | tr -d ' ')
        FAILURES=$(grep -o '<failure[ >/]' "$REPORT" | wc -l | tr -d ' ')
        printf '%s' "$TESTS" > "$(results.tests.path)"
        printf '%s' "$FAILURES" > "$(results.failures.path)"
        echo "$TESTS tests, $FAILURES failures"
        if [ "$FAILURES" -gt 0 ]; then
          exit 1
        fi
`;
