import type { TemplateSource } from './template-source.js';

export const GO_TEMPLATE: TemplateSource = {
  id: 'go',
  name: 'Go service',
  description:
    'A tiny HTTP service in Go (standard library only), tested with go test, on a distroless image',
  language: 'go',
  test: { image: 'golang:1.22-alpine', script: 'CGO_ENABLED=0 go test ./...' },
  files: {
    'go.mod': 'module example.com/app\n\ngo 1.22\n',
    'main.go': `package main

import (
	"encoding/json"
	"log"
	"net/http"
	"os"
)

// handler answers with a greeting; /healthz answers ok.
func handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("ok"))
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("content-type", "application/json")
		json.NewEncoder(w).Encode(map[string]string{"message": "Hello from Slipway"})
	})
	return mux
}

func main() {
	port := os.Getenv("PORT")
	if port == "" {
		port = "8080"
	}
	log.Printf("listening on %s", port)
	log.Fatal(http.ListenAndServe(":"+port, handler()))
}
`,
    'main_test.go': `package main

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestGreetsAndAnswersHealth(t *testing.T) {
	server := httptest.NewServer(handler())
	defer server.Close()
	res, err := server.Client().Get(server.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || !strings.Contains(string(body), "Hello from Slipway") {
		t.Fatalf("got %d %s", res.StatusCode, body)
	}
	res, err = server.Client().Get(server.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(res.Body)
	if string(body) != "ok" {
		t.Fatalf("health: %s", body)
	}
}
`,
    Dockerfile: `ARG BUILD_IMAGE=golang:1.22-alpine
ARG BASE_IMAGE=gcr.io/distroless/static-debian12:nonroot
FROM \${BUILD_IMAGE} AS build
WORKDIR /src
COPY go.mod main.go ./
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/app .

FROM \${BASE_IMAGE}
COPY --from=build /out/app /app
ENV PORT=8080
EXPOSE 8080
ENTRYPOINT ["/app"]
`,
  },
};
