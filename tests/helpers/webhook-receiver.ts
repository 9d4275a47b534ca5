// A local HTTP receiver for webhook tests: records every POST (path, headers, body) and answers 204,
// or as `answer` decides (it returns true when it has answered, or chose not to).
import http from "node:http";
import type { AddressInfo } from "node:net";

export type ReceivedPost = { path: string; headers: Record<string, string>; body: string };

export type WebhookReceiver = { base: string; received: ReceivedPost[]; stop: () => Promise<void> };

export async function startWebhookReceiver(
  answer?: (post: ReceivedPost, response: http.ServerResponse) => boolean,
): Promise<WebhookReceiver> {
  const received: ReceivedPost[] = [];
  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      const post = { path: request.url ?? "/", headers: request.headers as Record<string, string>, body };
      received.push(post);
      if (!answer?.(post, response)) response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
