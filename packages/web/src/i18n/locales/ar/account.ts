/** Arabic for src/features/account; assembled in ../ar.ts. */

/** The organisation's run duration limit (Settings → Account) and its note in the run dialog. */
export const account = {
  runLimit: {
    title: 'الحد الأقصى لمدة التشغيل',
    description:
      'لا يستمر أي تشغيل في هذه المؤسسة أطول من ذلك مهما كانت مهلته؛ والتشغيل الذي يتجاوزه ينتهي بانتهاء المهلة. اتركه فارغًا لعدم وجود حد.',
    field: 'الحد الأقصى لمدة التشغيل (بالدقائق)',
    hint: 'من 1 إلى {{max}} دقيقة؛ فارغ: بلا حد',
    none: 'بلا حد',
    saved: 'تم حفظ حد المدة.',
  },
};
