/** Hindi for src/features/account; assembled in ../hn.ts. */

/** The organisation's run duration limit (Settings → Account) and its note in the run dialog. */
export const account = {
  runLimit: {
    title: 'रन की अधिकतम अवधि',
    description:
      'इस संगठन का कोई भी रन, उसके अपने टाइमआउट से चाहे जो हो, इससे अधिक नहीं चलता; जो रन इससे आगे जाता है वह टाइम आउट होकर समाप्त होता है। कोई सीमा न रखने के लिए खाली छोड़ें।',
    field: 'रन की अधिकतम अवधि (मिनट)',
    hint: '1 से {{max}} मिनट; खाली: कोई सीमा नहीं',
    none: 'कोई सीमा नहीं',
    saved: 'रन की अवधि की सीमा सहेजी गई।',
  },
};
