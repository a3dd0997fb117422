import type { TemplateSource } from './template-source.js';

export const PYTHON_TEMPLATE: TemplateSource = {
  id: 'python',
  name: 'Python service',
  description: 'A tiny HTTP service on Python 3.12 (standard library only), tested with unittest',
  language: 'python',
  test: { image: 'python:3.12-alpine', script: 'python -m unittest -v' },
  files: {
    'app.py': `"""A tiny HTTP service: a greeting, and /healthz."""
import json
import os
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path == "/healthz":
            body, kind = b"ok", "text/plain"
        else:
            body, kind = json.dumps({"message": "Hello from Slipway"}).encode(), "application/json"
        self.send_response(200)
        self.send_header("content-type", kind)
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def serve(port):
    return ThreadingHTTPServer(("", port), Handler)


if __name__ == "__main__":
    port = int(os.environ.get("PORT", "8080"))
    print(f"listening on {port}", flush=True)
    serve(port).serve_forever()
`,
    'test_app.py': `import json
import threading
import unittest
from urllib.request import urlopen

from app import serve


class AppTest(unittest.TestCase):
    def test_greets_and_answers_health(self):
        server = serve(0)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_address[1]}"
        try:
            with urlopen(base + "/") as res:
                self.assertEqual(res.status, 200)
                self.assertEqual(json.load(res), {"message": "Hello from Slipway"})
            with urlopen(base + "/healthz") as res:
                self.assertEqual(res.read(), b"ok")
        finally:
            server.shutdown()
            server.server_close()


if __name__ == "__main__":
    unittest.main()
`,
    Dockerfile: `ARG BASE_IMAGE=python:3.12-alpine
FROM \${BASE_IMAGE}
WORKDIR /app
COPY app.py ./
ENV PORT=8080 PYTHONUNBUFFERED=1
EXPOSE 8080
USER nobody
CMD ["python", "app.py"]
`,
  },
};
