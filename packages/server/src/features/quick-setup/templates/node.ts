import type { TemplateSource } from './template-source.js';

export const NODE_TEMPLATE: TemplateSource = {
  id: 'nodejs',
  name: 'Node.js service',
  description: 'A tiny HTTP service on Node.js 20 (no dependencies), tested with node --test',
  language: 'javascript',
  test: { image: 'node:20-alpine', script: 'node --test' },
  files: {
    'package.json': `{
  "name": "app",
  "version": "1.0.0",
  "private": true,
  "type": "module",
  "scripts": {
    "start": "node server.js",
    "test": "node --test"
  }
}
`,
    'app.js': `import http from 'node:http';

/** Answers every request with a greeting; /healthz answers ok. */
export function createServer() {
  return http.createServer((req, res) => {
    if (req.url === '/healthz') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ message: 'Hello from Slipway' }));
  });
}
`,
    'server.js': `import { createServer } from './app.js';

const port = Number(process.env.PORT ?? 8080);
createServer().listen(port, () => console.log(\`listening on \${port}\`));
`,
    'app.test.js': `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createServer } from './app.js';

test('answers with a greeting and a health check', async () => {
  const server = createServer().listen(0);
  await new Promise((resolve) => server.once('listening', resolve));
  const base = \`http://127.0.0.1:\${server.address().port}\`;
  try {
    const hello = await fetch(base + '/');
    assert.equal(hello.status, 200);
    assert.deepEqual(await hello.json(), { message: 'Hello from Slipway' });
    assert.equal(await (await fetch(base + '/healthz')).text(), 'ok');
  } finally {
    server.close();
  }
});
`,
    Dockerfile: `ARG BASE_IMAGE=node:20-alpine
FROM \${BASE_IMAGE}
WORKDIR /app
COPY package.json app.js server.js ./
ENV PORT=8080 NODE_ENV=production
EXPOSE 8080
USER node
CMD ["node", "server.js"]
`,
    '.dockerignore': 'node_modules\n*.test.js\nk8s\n',
  },
};
