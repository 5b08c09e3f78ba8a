import type { FastifyRequest } from 'fastify';

/**
 * The shop's address as the outside sees it, for absolute links (link previews, the sitemap,
 * robots.txt): PUBLIC_URL when set, else the request's own, whose scheme and host come from
 * X-Forwarded-Proto and X-Forwarded-Host only behind a trusted proxy (TRUST_PROXY).
 */
export function publicOrigin(request: FastifyRequest): string {
  return request.server.config.publicUrl ?? `${request.protocol}://${request.host}`;
}
