import type { TemplateSource } from './template-source.js';

export const JAVA_TEMPLATE: TemplateSource = {
  id: 'java',
  name: 'Java service',
  description:
    'A tiny HTTP service on Java 21 (JDK HTTP server, no build tool), checked by a plain Java program',
  language: 'java',
  test: {
    image: 'eclipse-temurin:21-jdk-alpine',
    script: 'javac -d /tmp/classes src/*.java\njava -cp /tmp/classes AppCheck',
  },
  files: {
    'src/App.java': `import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/** A tiny HTTP service: a greeting, and /healthz. */
public class App {
  public static HttpServer create(int port) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(port), 0);
    server.createContext("/", exchange -> {
      boolean health = exchange.getRequestURI().getPath().equals("/healthz");
      byte[] body = (health ? "ok" : "{\\"message\\":\\"Hello from Slipway\\"}").getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("content-type", health ? "text/plain" : "application/json");
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    return server;
  }

  public static void main(String[] args) throws IOException {
    int port = Integer.parseInt(System.getenv().getOrDefault("PORT", "8080"));
    create(port).start();
    System.out.println("listening on " + port);
  }
}
`,
    'src/AppCheck.java': `import com.sun.net.httpserver.HttpServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** The service's check: it greets and answers its health check. Exits 1 when it does not. */
public class AppCheck {
  public static void main(String[] args) throws Exception {
    HttpServer server = App.create(0);
    server.start();
    String base = "http://127.0.0.1:" + server.getAddress().getPort();
    HttpClient client = HttpClient.newHttpClient();
    try {
      HttpResponse<String> hello = client.send(HttpRequest.newBuilder(URI.create(base + "/")).build(), HttpResponse.BodyHandlers.ofString());
      HttpResponse<String> health = client.send(HttpRequest.newBuilder(URI.create(base + "/healthz")).build(), HttpResponse.BodyHandlers.ofString());
      if (hello.statusCode() != 200 || !hello.body().contains("Hello from Slipway") || !health.body().equals("ok")) {
        System.err.println("FAIL: " + hello.statusCode() + " " + hello.body() + " / " + health.body());
        System.exit(1);
      }
      System.out.println("ok: the service greets and answers its health check");
    } finally {
      server.stop(0);
    }
  }
}
`,
    Dockerfile: `ARG BUILD_IMAGE=eclipse-temurin:21-jdk-alpine
ARG BASE_IMAGE=eclipse-temurin:21-jre-alpine
FROM \${BUILD_IMAGE} AS build
WORKDIR /src
COPY src ./src
RUN javac -d /out src/App.java

FROM \${BASE_IMAGE}
WORKDIR /app
COPY --from=build /out ./
ENV PORT=8080
EXPOSE 8080
USER 65532
CMD ["java", "-cp", "/app", "App"]
`,
  },
};
