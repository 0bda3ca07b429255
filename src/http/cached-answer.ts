import type { FastifyReply } from 'fastify';
import { JSON_CONTENT_TYPE } from './schemas.ts';

/**
 * Sends a polled read's answer serialized once per value. The read cache answers the same object
 * until its row changes (see ReadCache), so its answer is built and serialized with the route's
 * own serializer once, and sent as is to every request after: no view, no date formatting and no
 * serializing per poll.
 */
export function cachedAnswer<T extends object>(view: (value: T) => unknown = (value) => value) {
  const answers = new WeakMap<T, ReturnType<FastifyReply['serialize']>>();
  return (value: T, reply: FastifyReply): FastifyReply => {
    let answer = answers.get(value);
    if (answer === undefined) answers.set(value, (answer = reply.serialize(view(value))));
    return reply.type(JSON_CONTENT_TYPE).send(answer);
  };
}
