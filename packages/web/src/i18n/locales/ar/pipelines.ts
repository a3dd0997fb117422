/** Arabic for src/features/pipelines; assembled in ../ar.ts. */

export const pipelines = { runDialog: { timeoutCap: 'حد المؤسسة ينهي التشغيل بعد {{count}} دقيقة' } };
