import type { TemplateSource } from './template-source.js';

export const STATIC_TEMPLATE: TemplateSource = {
  id: 'static-site',
  name: 'Static site',
  description: 'A static web site served by unprivileged nginx on port 8080, checked by a shell script',
  language: 'html',
  test: { image: 'alpine:3.20', script: 'sh check.sh' },
  files: {
    'public/index.html': `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Hello from Slipway</title>
  </head>
  <body>
    <h1>Hello from Slipway</h1>
    <p>Edit public/index.html and push: the pipeline builds and deploys it.</p>
  </body>
</html>
`,
    'check.sh': `#!/bin/sh
# The site's check: every page has a title and the home page is there.
set -eu
test -f public/index.html || { echo "FAIL: public/index.html is missing"; exit 1; }
for page in public/*.html; do
  grep -q '<title>' "$page" || { echo "FAIL: $page has no <title>"; exit 1; }
done
echo "ok: $(ls public/*.html | wc -l) page(s) checked"
`,
    Dockerfile: `ARG BASE_IMAGE=nginxinc/nginx-unprivileged:1.27-alpine
FROM \${BASE_IMAGE}
COPY public /usr/share/nginx/html
EXPOSE 8080
`,
  },
};
