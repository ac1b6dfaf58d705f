/**
 * A static file server for the built page (`deno task web --serve`, and the browser test): files
 * of one folder by path, `index.html` for `/`, with their content types; POSTs go to an optional
 * hook (the test's channel for the page's results).
 *
 * @module
 */
import { extname, join, normalize } from "node:path";

const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".jsonl": "application/jsonl",
};

/** Options of {@link serveFolder}. */
export interface ServeFolderOptions {
  /** Port (0: any free one; default 8000). */
  port?: number;
  /** Interface (default 127.0.0.1: this machine only). */
  hostname?: string;
  /** Receives each POST's path and body; the reply is 204. Without it a POST is 405. */
  post?: (path: string, body: string) => void;
  /** Called once listening, with the address to open. */
  onListen?: (url: string) => void;
}

/** Serves the files of `folder` until the returned server is shut down. */
export function serveFolder(folder: string, options: ServeFolderOptions = {}): Deno.HttpServer {
  const root = normalize(folder);
  return Deno.serve({
    port: options.port ?? 8000,
    hostname: options.hostname ?? "127.0.0.1",
    onListen: ({ hostname, port }) => options.onListen?.(`http://${hostname}:${port}/`),
  }, async (req) => {
    const path = decodeURIComponent(new URL(req.url).pathname);
    if (req.method === "POST") {
      if (!options.post) return new Response("no POST here", { status: 405 });
      options.post(path, await req.text());
      return new Response(null, { status: 204 });
    }
    const file = normalize(join(root, path.endsWith("/") ? `${path}index.html` : path));
    if (!file.startsWith(root)) return new Response("outside the folder", { status: 403 });
    try {
      const body = await Deno.readFile(file);
      const type = TYPES[extname(file)] ?? "application/octet-stream";
      return new Response(body, { headers: { "content-type": type } });
    } catch {
      return new Response(`${path}: not found`, { status: 404 });
    }
  });
}
