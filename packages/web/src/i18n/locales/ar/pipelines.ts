/** Arabic for src/features/pipelines; assembled in ../ar.ts. */

export const pipelines = {
  runDialog: { timeoutCap: 'حد المؤسسة ينهي التشغيل بعد {{count}} دقيقة' },
  versions: {
    title: 'الإصدارات',
    onlyOne: 'لا يوجد سوى إصدار واحد حتى الآن: حفظ تعريف معدَّل ينشئ الإصدار التالي.',
    columns: { version: 'الإصدار', format: 'الصيغة', savedBy: 'حفظه', savedAt: 'تاريخ الحفظ' },
    label: 'v{{version}}',
    labelCurrent: 'v{{version}} (الحالي)',
    current: 'الحالي',
    nobody: 'غير مسجَّل',
    view: 'عرض',
    compare: 'مقارنة',
    restore: 'استعادة',
    viewTitle: 'الإصدار {{version}}',
    definitionOf: 'تعريف الإصدار {{version}}',
    loadError: 'تعذّر تحميل هذا الإصدار.',
    restoreThis: 'استعادة هذا الإصدار',
    compareWithCurrent: 'مقارنة بالإصدار الحالي',
    close: 'إغلاق',
    compareTitle: 'مقارنة الإصدارات',
    from: 'من',
    to: 'إلى',
    swap: 'تبديل الطرفين',
    closeCompare: 'إغلاق المقارنة',
    summaryLabel: 'أسطر مضافة: {{added}}، أسطر محذوفة: {{removed}}',
    diffLabel: 'التغييرات من الإصدار {{from}} إلى الإصدار {{to}}',
    identical: 'لهذين الإصدارين التعريف نفسه.',
    unchanged: '… أسطر بلا تغيير: {{count}}',
    restoreTitle: 'استعادة الإصدار {{version}}؟',
    restoreBody:
      'يُحفظ تعريفه كإصدار جديد يصبح الإصدار الحالي، وتُحفظ جميع الإصدارات. تُستبدل التعديلات غير المحفوظة في المحرر أعلاه.',
    restoreConfirm: 'استعادة',
    restored: 'تمت استعادة الإصدار {{from}}: خط المعالجة الآن في الإصدار {{version}}.',
    externalNote:
      'يأتي تعريف خط المعالجة هذا من مستودع git الخاص به، لذا لا يمكن استعادة إصدار سابق هنا: عدّل الملف في المستودع ثم زامِن.',
  },
};
