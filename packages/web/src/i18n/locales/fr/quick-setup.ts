/** French for src/features/quick-setup; assembled in ../fr.ts. */

export const quickSetup = {
  title: 'Configuration rapide',
  entry: 'Configuration rapide',
  entryHint:
    'Le plus rapide : la configuration rapide crée un dépôt, un pipeline et une application à partir d’un modèle, puis lance la première exécution.',
  intro:
    'D’un modèle d’application à un pipeline qui tourne, en une seule étape : Slipway crée un dépôt avec les fichiers du modèle, ses identifiants, un pipeline et une application, puis lance la première exécution.',
  back: 'Bibliothèque de microservices',
  missingPermissions:
    'La configuration rapide crée aussi un dépôt, des secrets, un jeton de registre et un pipeline, puis l’exécute. Il manque à votre rôle : {{permissions}}. Demandez à un administrateur, sinon la configuration sera refusée.',
  loadError: {
    templates: 'Les modèles d’application n’ont pas pu être chargés.',
    environments: 'Les environnements n’ont pas pu être chargés.',
    repositories: 'Les dépôts n’ont pas pu être chargés.',
    registries: 'Les registres n’ont pas pu être chargés.',
    serviceTypes: 'Les types de service n’ont pas pu être chargés.',
  },
  template: {
    title: 'Choisissez un modèle',
    files: 'Fichiers créés',
    none: 'Aucun modèle d’application n’est disponible.',
  },
  languages: { javascript: 'JavaScript', python: 'Python', go: 'Go', java: 'Java', html: 'HTML' },
  form: {
    title: 'Détails',
    name: 'Nom',
    nameHelp:
      'Lettres minuscules, chiffres et tirets : il nomme l’application, son dépôt, son pipeline et ses objets sur les clusters.',
    description: 'Description',
    environments: 'Environnements',
    environmentsHelp: 'Où l’application est déployée ; la première exécution déploie dans le premier choisi.',
    repository: 'Dépôt',
    hosted: 'Nouveau dépôt hébergé',
    hostedHelp:
      'Slipway crée un dépôt nommé {{name}} et y place les fichiers du modèle : le service, son test, un Dockerfile, les manifestes et le pipeline.',
    hostedUnnamed: 'comme l’application',
    existingHelp:
      'Le pipeline construit ce dépôt tel quel : rien n’y est ajouté, il lui faut donc son propre Dockerfile et ses manifestes.',
    registry: 'Registre',
    registryHelp: '{{name}} : l’image est poussée sous {{image}}',
    insecure: 'Ce registre est servi en HTTP simple : les envois ne vérifient pas TLS.',
    noRegistry: 'Aucun registre n’est disponible pour la configuration rapide.',
    serviceType: 'Type de service',
    port: 'Port',
    namespace: 'Espace de noms',
    serviceHelp: 'Prérempli d’après le modèle : comment l’application est servie sur les clusters.',
    advanced: 'Avancé',
    baseImage: 'Image de base',
    baseImageHelp:
      'Laissez vide pour utiliser l’image de base du modèle. Utilisez la copie d’un miroir là où les images publiques ne peuvent pas être récupérées, ou scratch pour une image contenant seulement les fichiers.',
    submit: 'Créer et exécuter',
    progress:
      'Création du dépôt, de ses identifiants, du pipeline et de l’application, puis lancement de la première exécution…',
  },
  result: {
    title: '{{name}} est configurée et sa première exécution a démarré',
    template: 'À partir du modèle {{template}}.',
    application: 'Application',
    openApplication: 'Ouvrir l’application',
    repository: 'Dépôt',
    cloneUrl: 'URL de clonage',
    copy: 'Copier l’URL de clonage',
    copied: 'L’URL de clonage est copiée.',
    selectToCopy: 'L’URL de clonage est sélectionnée : copiez-la avec le clavier ou le menu.',
    commit: 'Commit initial {{commit}}',
    notSeeded: 'Un dépôt existant : rien n’y a été ajouté.',
    loopback:
      'Cette adresse ({{host}}) n’atteint que cette machine : un pipeline sur un cluster ailleurs ne peut pas cloner depuis elle. Définissez SLIPWAY_PUBLIC_URL sur une adresse que votre cluster peut atteindre.',
    pipeline: 'Pipeline',
    openPipeline: 'Ouvrir le pipeline',
    image: 'Image',
    secrets: 'Secrets',
    noSecrets: 'Aucun créé',
    viewRun: 'Voir la première exécution',
    another: 'En configurer une autre',
  },
};
