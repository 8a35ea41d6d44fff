import { request } from 'node:http';

/*
 * Raw HTTP for the shell tests: Host and Origin set freely (fetch forbids those headers), as a proxy or another site
 * would send them.
 */

/** An HTTP answer as read. */
export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The body as JSON (undefined when it is not). */
  json: Record<string, unknown> | undefined;
}

/** A raw HTTP request to 127.0.0.1:`port` (Host and Origin set freely, as a proxy or another site would). */
export function raw(
  port: number,
  opts: { method?: string; path?: string; headers?: Record<string, string>; body?: string },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: opts.method ?? 'GET',
        path: opts.path ?? '/',
        headers: opts.headers,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => {
          let json: Record<string, unknown> | undefined;
          try {
            json = JSON.parse(body) as Record<string, unknown>;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json });
        });
      },
    );
    req.on('error', reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}
