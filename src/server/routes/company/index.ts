import fp from 'fastify-plugin';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ACCOUNT_MESSAGES } from '../../../shared/account';
import { COMPANY_MESSAGES } from '../../../shared/company';
import { companyFeedPath } from '../../../shared/feeds';
import { unprocessable } from '../../api-error';
import { publicOrigin } from '../../public-origin';
import { bearerToken } from '../../plugins/authentication';
import { hashPassword } from '../../services/passwords';
import { createSignInThrottle, INVITATION_LETTER_LIMITS, throttledClient } from '../../services/sign-in-throttle';
import { sameOriginOnly, validEmail, validNewPassword } from '../auth/checks';
import { countedPerClient, tooManyAttempts } from '../auth/throttling';
import * as schema from './schema';

/**
 * The buyer's company (GET /api/v1/company): its employees, invitations and legal entities. The
 * company service decides who may do what; every route acts on the caller's own company only.
 */
const companyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { companies } = app.services;
  // Invitations are answered without a session (a new employee has none yet): like sign-up, only
  // from the shop's own pages, and counted per client.
  const sameOrigin = sameOriginOnly(app.config.allowedOrigins);
  const perClient = countedPerClient(createSignInThrottle(app.repositories.signInAttempts, app.config));

  app.get('/', { schema: schema.getCompany, onRequest: app.authenticate }, (request) => companies.view(request.member));

  app.patch('/', { schema: schema.renameCompany, onRequest: app.authenticate }, (request) =>
    companies.rename(request.member, request.body.name),
  );

  app.post(
    '/invitations',
    { schema: schema.invite, onRequest: [app.authenticate, perClient] },
    async (request, reply) => {
      const email = validEmail(request.body.email);
      // An invitation is a letter to an address of the owner's choosing: counted with the other
      // letters to it (reset, confirmation), so no company can flood a stranger's mailbox.
      const letterAllowed = await app.repositories.resetRequests.record(
        { email, client: throttledClient(request.ip), ownersDevice: false },
        INVITATION_LETTER_LIMITS,
      );
      if (!letterAllowed) throw tooManyAttempts(reply, INVITATION_LETTER_LIMITS.perAddress.windowMs / 1000);
      const invitation = await companies.invite(request.member, email, request.body.role);
      return reply.code(201).send(invitation);
    },
  );

  app.delete(
    '/invitations/:id',
    { schema: schema.revokeInvitation, onRequest: app.authenticate },
    async (request, reply) => {
      await companies.revokeInvitation(request.member, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/invitations/preview',
    { schema: schema.previewInvitation, onRequest: [sameOrigin, perClient] },
    (request) => companies.preview(request.body.token),
  );

  // With a bearer token the signed-in account joins; without one, a new account of the invited
  // address is made with the password given.
  app.post(
    '/invitations/accept',
    { schema: schema.acceptInvitation, onRequest: [sameOrigin, perClient] },
    async (request, reply) => {
      const { token, password, consent } = request.body;
      if (consent !== true) throw unprocessable(ACCOUNT_MESSAGES.consentRequired);
      if (bearerToken(request.headers.authorization) !== null) {
        await app.authenticate(request, reply);
        const { newAccount: _signedIn, ...accepted } = await companies.accept(token, { sessionUserId: request.userId });
        return accepted;
      }
      if (password === undefined) throw unprocessable(COMPANY_MESSAGES.passwordNeeded);
      const { email } = await companies.preview(token);
      const passwordHash = await hashPassword(validNewPassword(password, email));
      const { newAccount: _created, ...accepted } = await companies.accept(token, { passwordHash });
      return accepted;
    },
  );

  app.patch('/members/:user_id', { schema: schema.changeRole, onRequest: app.authenticate }, (request) =>
    companies.setRole(request.member, request.params.user_id, request.body.role),
  );

  app.delete('/members/:user_id', { schema: schema.removeMember, onRequest: app.authenticate }, async (request) => {
    const { company, revokedSessions } = await companies.removeMember(request.member, request.params.user_id);
    // This process refuses their tokens at once; the others hear of it from the database's notification.
    app.sessionRevocations.remember(revokedSessions);
    return company;
  });

  app.get('/feed', { schema: schema.getFeed, onRequest: app.authenticate }, (request) =>
    app.services.companyFeeds.state(request.member),
  );

  app.post('/feed', { schema: schema.issueFeed, onRequest: app.authenticate }, async (request, reply) => {
    const { token, createdAt } = await app.services.companyFeeds.issue(request.member);
    return reply
      .code(201)
      .header('cache-control', 'no-store')
      .send({ url: `${publicOrigin(request)}${companyFeedPath(token)}`, created_at: createdAt.toISOString() });
  });

  app.delete('/feed', { schema: schema.revokeFeed, onRequest: app.authenticate }, async (request, reply) => {
    await app.services.companyFeeds.revoke(request.member);
    return reply.code(204).send(null);
  });

  app.get('/legal-entities', { schema: schema.listLegalEntities, onRequest: app.authenticate }, (request) =>
    companies.legalEntities(request.member),
  );

  app.post('/legal-entities', { schema: schema.addLegalEntity, onRequest: app.authenticate }, async (request, reply) =>
    reply.code(201).send(await companies.addLegalEntity(request.member, request.body)),
  );

  app.patch('/legal-entities/:id', { schema: schema.updateLegalEntity, onRequest: app.authenticate }, (request) =>
    companies.updateLegalEntity(request.member, request.params.id, request.body),
  );

  app.delete(
    '/legal-entities/:id',
    { schema: schema.deleteLegalEntity, onRequest: app.authenticate },
    async (request, reply) => {
      await companies.removeLegalEntity(request.member, request.params.id);
      return reply.code(204).send(null);
    },
  );
};

// Encapsulated (its hooks stay on its own routes), and named so that its dependencies are checked.
export default fp(companyRoutes, {
  name: 'company-routes',
  encapsulate: true,
  dependencies: ['database', 'services', 'authentication'],
});
