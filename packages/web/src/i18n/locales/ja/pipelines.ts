/** Japanese for src/features/pipelines; assembled in ../ja.ts. */

export const pipelines = {
  runDialog: { timeoutCap: '組織の上限により、実行は最長 {{count}} 分で終了します' },
  versions: {
    title: 'バージョン',
    onlyOne: 'バージョンはまだ 1 つだけです。変更した定義を保存すると次のバージョンになります。',
    columns: { version: 'バージョン', format: '形式', savedBy: '保存者', savedAt: '保存日時' },
    label: 'v{{version}}',
    labelCurrent: 'v{{version}}（現在）',
    current: '現在',
    nobody: '記録なし',
    view: '表示',
    compare: '比較',
    restore: '復元',
    viewTitle: 'バージョン {{version}}',
    definitionOf: 'バージョン {{version}} の定義',
    loadError: 'このバージョンを読み込めませんでした。',
    restoreThis: 'このバージョンを復元',
    compareWithCurrent: '現在のバージョンと比較',
    close: '閉じる',
    compareTitle: 'バージョンの比較',
    from: '比較元',
    to: '比較先',
    swap: '左右を入れ替え',
    closeCompare: '比較を閉じる',
    summaryLabel: '追加 {{added}} 行、削除 {{removed}} 行',
    diffLabel: 'バージョン {{from}} からバージョン {{to}} への変更',
    identical: 'この 2 つのバージョンの定義は同じです。',
    unchanged: '… 変更のない {{count}} 行',
    restoreTitle: 'バージョン {{version}} を復元しますか？',
    restoreBody:
      'その定義が新しいバージョンとして保存され、現在のバージョンになります。すべてのバージョンは保持されます。上のエディターの未保存の編集は置き換えられます。',
    restoreConfirm: '復元',
    restored: 'バージョン {{from}} を復元しました。パイプラインはバージョン {{version}} になりました。',
    externalNote:
      'このパイプラインの定義は git リポジトリから取得されるため、ここで以前のバージョンを復元することはできません。リポジトリ内のファイルを変更してから同期してください。',
  },
};
