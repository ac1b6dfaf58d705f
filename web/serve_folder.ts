/**
 * A static file server for the built page (`deno task web --serve`, and the browser test): files
 * of one folder by path, `index.html` for `/`, with their content types, for GET and HEAD; POSTs
 * go to an optional hook (the test's channel for the page's results); any other method (PUT,
 * DELETE, TRACE, OPTIONS, …) is answered 405 with the allowed ones in `Allow`. Only files inside the folder are served: each
 * request path is percent-decoded, resolved against the folder and then through its symbolic
 * links, and refused (403) unless it stays inside (`..` however encoded, a sibling folder whose
 * name starts with the folder's, a link pointing out).
 *
 * @module
 */
import { extname, resolve, sep } from "node:path";

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

/**
 * The file of `folder` (a real path) that the request path `pathname` (still percent-encoded)
 * names, through symbolic links; null when it is malformed or lies outside the folder.
 */
export async function fileInFolder(folder: string, pathname: string): Promise<string | null> {
  let path: string;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    return null; // a malformed escape such as %E0%A4
  }
  if (path.includes("\0")) return null;
  const inside = (p: string) =>
    p === folder || p.startsWith(folder.endsWith(sep) ? folder : folder + sep);
  const file = resolve(folder, `.${sep}${path.endsWith("/") ? `${path}index.html` : path}`);
  if (!inside(file)) return null;
  try {
    const real = await Deno.realPath(file);
    return inside(real) ? real : null;
  } catch {
    return file; // missing: a 404 below
  }
}

/** Serves the files of `folder` until the returned server is shut down. */
export function serveFolder(folder: string, options: ServeFolderOptions = {}): Deno.HttpServer {
  const root = Deno.realPathSync(folder);
  return Deno.serve({
    port: options.port ?? 8000,
    hostname: options.hostname ?? "127.0.0.1",
    onListen: ({ hostname, port }) => options.onListen?.(`http://${hostname}:${port}/`),
  }, async (req) => {
    const pathname = new URL(req.url).pathname;
    if (req.method === "POST") {
      if (!options.post) return new Response("no POST here", { status: 405 });
      options.post(safeDecode(pathname), await req.text());
      return new Response(null, { status: 204 });
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      return new Response(`${req.method}: not allowed; this server only reads files`, {
        status: 405,
        headers: { allow: options.post ? "GET, HEAD, POST" : "GET, HEAD" },
      });
    }
    const file = await fileInFolder(root, pathname);
    if (file === null) return new Response("outside the folder", { status: 403 });
    try {
      const body = await Deno.readFile(file);
      const type = TYPES[extname(file)] ?? "application/octet-stream";
      return new Response(body, { headers: { "content-type": type } });
    } catch {
      return new Response(`${safeDecode(pathname)}: not found`, { status: 404 });
    }
  });
}

/** `pathname` percent-decoded, or as it is where an escape is malformed. */
function safeDecode(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}
