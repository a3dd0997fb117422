/** Hindi for src/features/pipelines; assembled in ../hn.ts. */

export const pipelines = {
  runDialog: { timeoutCap: 'संगठन की सीमा के कारण रन अधिकतम {{count}} मिनट में समाप्त होगा' },
};
