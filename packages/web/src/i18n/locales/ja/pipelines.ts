/** Japanese for src/features/pipelines; assembled in ../ja.ts. */

export const pipelines = {
  runDialog: { timeoutCap: '組織の上限により、実行は最長 {{count}} 分で終了します' },
};
