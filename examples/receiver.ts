// A webhook receiver that verifies the scheduler's Standard Webhooks signatures, on Node's
// own http and crypto. The signature covers `{webhook-id}.{webhook-timestamp}.{body}` with
// the body as the exact bytes received, so it verifies every body: empty, text, JSON or
// binary. Nothing is parsed before the signature holds.
//
//   npx tsc receiver.ts && WEBHOOK_SECRET=whsec_... node receiver.js 8080
//
// WEBHOOK_SECRET may hold several secrets, comma separated (while you change yours).
// Answers 204 to a call that verifies, 401 to one that does not.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";

const TOLERANCE_SECONDS = 300; // a replayed call older (or newer) than this is refused

export function secretBytes(secret: string): Buffer {
  // `whsec_` then base64: the key is the decoded bytes, not the text.
  return Buffer.from(secret.trim().replace(/^whsec_/, ""), "base64");
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function verify(secrets: Buffer[], headers: IncomingHttpHeaders, body: Buffer,
                       now: number = Date.now() / 1000): boolean {
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !timestamp || !signatures || !/^\d+$/.test(timestamp)) return false;
  if (Math.abs(now - Number(timestamp)) > TOLERANCE_SECONDS) return false;
  const signed = Buffer.concat([Buffer.from(`${id}.${timestamp}.`), body]);
  const expected = secrets.map((key) => createHmac("sha256", key).update(signed).digest());
  // The sender lists several signatures, space separated, during a rotation.
  return signatures.split(" ").some((entry) => {
    const [version, encoded] = entry.split(",", 2);
    if (version !== "v1" || !encoded) return false;
    const given = Buffer.from(encoded, "base64");
    return expected.some((digest) => given.length === digest.length && timingSafeEqual(given, digest));
  });
}

function receive(secrets: Buffer[], request: IncomingMessage, response: ServerResponse): void {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    const body = Buffer.concat(chunks);
    const valid = verify(secrets, request.headers, body);
    // Do the work here, once per Idempotency-Key (the same on every retry of a job).
    const key = header(request.headers, "idempotency-key");
    console.log(`${valid ? "verified" : "REJECTED"} ${request.method} ${request.url} ` +
                `Idempotency-Key=${key} ${body.length} bytes`);
    response.writeHead(valid ? 204 : 401).end();
  });
}

function main(): void {
  const secrets = (process.env.WEBHOOK_SECRET ?? "").split(",").filter(Boolean).map(secretBytes);
  if (secrets.length === 0) throw new Error("set WEBHOOK_SECRET to your signing secret");
  const port = Number(process.argv[2] ?? 8080);
  const server = createServer((request, response) => receive(secrets, request, response));
  server.listen(port, "127.0.0.1", () => console.log(`listening on 127.0.0.1:${port}`));
  process.on("SIGTERM", () => server.close(() => process.exit(0)));
}

main();
