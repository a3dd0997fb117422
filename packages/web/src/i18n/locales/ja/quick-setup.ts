/** Japanese for src/features/quick-setup; assembled in ../ja.ts. */

export const quickSetup = {
  title: 'クイックセットアップ',
  entry: 'クイックセットアップ',
  entryHint:
    '最短の方法：クイックセットアップはテンプレートからリポジトリ、パイプライン、アプリケーションを作成し、最初の実行を開始します。',
  intro:
    'アプリテンプレートから動くパイプラインまで一度に：Slipway はテンプレートのファイルを含むリポジトリ、その認証情報、パイプライン、アプリケーションを作成し、最初の実行を開始します。',
  back: 'マイクロサービスライブラリ',
  missingPermissions:
    'クイックセットアップはリポジトリ、シークレット、レジストリのトークン、パイプラインも作成して実行します。あなたのロールに不足している権限：{{permissions}}。管理者に依頼してください。そうしないとセットアップは拒否されます。',
  loadError: {
    templates: 'アプリテンプレートを読み込めませんでした。',
    environments: '環境を読み込めませんでした。',
    repositories: 'リポジトリを読み込めませんでした。',
    registries: 'レジストリを読み込めませんでした。',
    serviceTypes: 'サービスタイプを読み込めませんでした。',
  },
  template: {
    title: 'テンプレートを選択',
    files: '作成されるファイル',
    none: '利用できるアプリテンプレートはありません。',
  },
  languages: { javascript: 'JavaScript', python: 'Python', go: 'Go', java: 'Java', html: 'HTML' },
  form: {
    title: '詳細',
    name: '名前',
    nameHelp:
      '小文字、数字、ハイフン：アプリケーション、そのリポジトリ、パイプライン、クラスター上のオブジェクトの名前になります。',
    description: '説明',
    environments: '環境',
    environmentsHelp: 'アプリケーションのデプロイ先。最初の実行は最初に選んだ環境にデプロイします。',
    repository: 'リポジトリ',
    hosted: '新しいホスト型リポジトリ',
    hostedHelp:
      'Slipway は {{name}} という名前のリポジトリを作成し、テンプレートのファイル（サービス、テスト、Dockerfile、マニフェスト、パイプライン）を入れます。',
    hostedUnnamed: 'アプリケーションと同じ名前',
    existingHelp:
      'パイプラインはこのリポジトリをそのままビルドします。何も追加されないため、独自の Dockerfile とマニフェストが必要です。',
    registry: 'レジストリ',
    registryHelp: '{{name}}：イメージは {{image}} としてプッシュされます',
    insecure: 'このレジストリは平文の HTTP で提供されています。プッシュでは TLS の検証を行いません。',
    noRegistry: 'クイックセットアップで使えるレジストリがありません。',
    serviceType: 'サービスタイプ',
    port: 'ポート',
    namespace: '名前空間',
    serviceHelp: 'テンプレートから入力済み：クラスター上でのアプリケーションの提供方法です。',
    advanced: '詳細設定',
    baseImage: 'ベースイメージ',
    baseImageHelp:
      '空のままにするとテンプレート自身のベースイメージを使います。公開イメージを取得できない場所ではミラーのコピーを、ファイルだけのイメージには scratch を指定してください。',
    submit: '作成して実行',
    progress: 'リポジトリ、認証情報、パイプライン、アプリケーションを作成し、最初の実行を開始しています…',
  },
  result: {
    title: '{{name}} のセットアップが完了し、最初の実行が始まりました',
    template: '{{template}} テンプレートから作成。',
    application: 'アプリケーション',
    openApplication: 'アプリケーションを開く',
    repository: 'リポジトリ',
    cloneUrl: 'クローン URL',
    copy: 'クローン URL をコピー',
    copied: 'クローン URL をコピーしました。',
    selectToCopy: 'クローン URL を選択しました。キーボードかメニューでコピーしてください。',
    commit: '初期コミット {{commit}}',
    notSeeded: '既存のリポジトリ：何も追加されていません。',
    loopback:
      'このアドレス（{{host}}）はこのマシンにしか届きません。別の場所のクラスター上のパイプラインはここからクローンできません。SLIPWAY_PUBLIC_URL をクラスターから届くアドレスに設定してください。',
    pipeline: 'パイプライン',
    openPipeline: 'パイプラインを開く',
    image: 'イメージ',
    secrets: 'シークレット',
    noSecrets: '作成なし',
    viewRun: '最初の実行を表示',
    another: '別のものをセットアップ',
  },
};
