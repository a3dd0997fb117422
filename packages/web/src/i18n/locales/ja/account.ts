/** Japanese for src/features/account; assembled in ../ja.ts. */

/** The organisation's run duration limit (Settings → Account) and its note in the run dialog. */
export const account = {
  runLimit: {
    title: '実行時間の上限',
    description:
      'この組織の実行は、それ自体のタイムアウトにかかわらず、この時間を超えて続きません。超えた実行はタイムアウトとして終了します。空欄にすると上限なしになります。',
    field: '実行時間の上限（分）',
    hint: '1〜{{max}} 分。空欄：上限なし',
    none: '上限なし',
    saved: '実行時間の上限を保存しました。',
  },
};
