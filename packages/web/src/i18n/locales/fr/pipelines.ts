/** French for src/features/pipelines; assembled in ../fr.ts. */

export const pipelines = {
  runDialog: { timeoutCap: "La limite de l'organisation arrête l'exécution après {{count}} min" },
};
