/**
 * The test Kubernetes API server. It lives in ./kube-api/ (see ./kube-api/README.md for what it
 * simulates and what it does not); this file keeps the import path the tests use.
 */
export * from './kube-api/index.js';
