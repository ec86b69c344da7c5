import type { Endpoint } from './endpoint.ts';

export interface Match {
  readonly endpoint: Endpoint;
  readonly params: Record<string, string>;
}

/** An endpoint list with its path patterns compiled: finds the operation of a method and path. */
export class Routes {
  private readonly compiled: { endpoint: Endpoint; names: string[]; regex: RegExp }[];

  constructor(readonly endpoints: readonly Endpoint[]) {
    this.compiled = endpoints.map((endpoint) => {
      const names: string[] = [];
      const pattern = endpoint.path.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
        names.push(name);
        return '([^/]+)';
      });
      return { endpoint, names, regex: new RegExp(`^${pattern}$`) };
    });
  }

  /** The endpoint of a method and path, with its path parameters decoded. */
  match(method: string, path: string): Match | undefined {
    for (const c of this.compiled) {
      if (c.endpoint.method !== method.toUpperCase()) continue;
      const m = c.regex.exec(path);
      if (!m) continue;
      const params: Record<string, string> = {};
      c.names.forEach((n, i) => (params[n] = decodeURIComponent(m[i + 1]!)));
      return { endpoint: c.endpoint, params };
    }
    return undefined;
  }

  exists(path: string): boolean {
    return this.compiled.some((c) => c.regex.test(path));
  }
}
