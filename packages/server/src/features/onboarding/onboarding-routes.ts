import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { setTourStatusBodySchema, tourStatusSchema } from '@slipway/contracts';
import { AUTHENTICATED } from '../../platform/auth/principal.js';
import { NotAllowedError } from '../../platform/errors.js';
import { routes } from '../../platform/routes.js';
import { tourMilestone, type OnboardingService } from './onboarding-service.js';

/** The tour belongs to a person: a service-account token has none. */
function person(request: FastifyRequest): { userId: string; organisationId: string } {
  const p = request.principal;
  if (p?.kind !== 'user') throw new NotAllowedError();
  return { userId: p.userId, organisationId: p.organisationId };
}

/** admin/onboarding/{get,set}TourStatus (spec §7): the caller's own tour, in their organisation. */
export function onboardingRoutes(service: OnboardingService): FastifyPluginAsyncZod {
  return async (app) => {
    const onboarding = routes(app, ['onboarding']);
    onboarding.get('/api/admin/onboarding/getTourStatus', {
      summary: "The caller's guided-tour state in the session's organisation",
      access: AUTHENTICATED,
      response: tourStatusSchema,
      handler: async (request) => {
        const { userId, organisationId } = person(request);
        return { Onboardingstate: await service.status(userId, organisationId) };
      },
    });
    onboarding.post('/api/admin/onboarding/setTourStatus', {
      summary:
        "Move the caller's guided tour forward, mark it completed or skipped, or restart it (audited at its start, skip and finish)",
      access: AUTHENTICATED,
      auditAction: 'onboarding.tour_status',
      body: setTourStatusBodySchema,
      response: tourStatusSchema,
      handler: async (request) => {
        const { userId, organisationId } = person(request);
        // Not declared on the route: the target is the person, and a service account refused above
        // leaves no target in its record.
        request.audit.targetType = 'onboarding_state';
        request.audit.targetId = userId;
        const requested = request.body.Onboardingstate;
        const { before, after } = await service.setStatus(userId, organisationId, requested);
        // One record per start, skip and finish; the steps between are not audit noise.
        const event = tourMilestone(before, after, requested);
        if (event) request.audit.detail = { event, requested, before, after };
        else request.audit.notRecorded = true;
        return { Onboardingstate: after };
      },
    });
  };
}
