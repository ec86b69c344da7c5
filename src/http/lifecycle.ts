import type { FastifyReply } from 'fastify';
import { GoneError } from '../errors.ts';
import type { Principal } from '../state/api-keys.ts';
import type { Endpoint } from '../reports/endpoint.ts';

const unix = (day: string) => Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000);

/**
 * Deprecation (RFC 9745) and Sunset (RFC 8594) headers, and the seed's rule for retired raw-log
 * operations against the injected clock: keys created on or after the cut-off day are refused, and
 * every key is refused from the sunset day on, with 410 Gone.
 */
export function applyLifecycle(endpoint: Endpoint, reply: FastifyReply, principal: Principal, now: Date): void {
  if (endpoint.successor) reply.header('link', `<${endpoint.successor}>; rel="successor-version"`);
  if (!endpoint.sunset) {
    if (endpoint.deprecated) reply.header('deprecation', 'true');
    return;
  }
  const { deprecatedOn, newKeysFrom, sunsetOn } = endpoint.sunset;
  reply.header('deprecation', `@${unix(deprecatedOn)}`);
  reply.header('sunset', new Date(unix(sunsetOn) * 1000).toUTCString());
  const use = endpoint.successor ? `; use ${endpoint.successor}` : '';
  if (now.getTime() >= unix(sunsetOn) * 1000)
    throw new GoneError(`${endpoint.method} ${endpoint.path} was retired on ${sunsetOn}${use}`);
  if (principal.createdAt.getTime() >= unix(newKeysFrom) * 1000) {
    throw new GoneError(
      `${endpoint.method} ${endpoint.path} is deprecated; keys created on or after ${newKeysFrom} cannot use it${use}`,
    );
  }
}
