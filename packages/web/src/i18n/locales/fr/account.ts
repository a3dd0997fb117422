/** French for src/features/account; assembled in ../fr.ts. */

/** The organisation's run duration limit (Settings → Account) and its note in the run dialog. */
export const account = {
  runLimit: {
    title: 'Durée maximale des exécutions',
    description:
      'Aucune exécution de cette organisation ne dure plus longtemps, quel que soit son propre délai : une exécution qui la dépasse se termine en dépassement de délai. Laisser vide pour aucune limite.',
    field: "Durée maximale d'une exécution (minutes)",
    hint: 'De 1 à {{max}} minutes ; vide : aucune limite',
    none: 'Aucune limite',
    saved: 'La limite de durée est enregistrée.',
  },
};
