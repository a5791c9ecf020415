import type { FastifyReply } from 'fastify';
import { makeProblem, type Problem, type ProblemCode, type ProblemFieldError } from '../../src-shared/api/errors';

/** Thrown by handlers and services; the one error handler turns it into a problem body. */
export class ApiError extends Error {
  readonly problem: Problem;
  readonly headers: Record<string, string>;

  constructor(code: ProblemCode, detail: string, errors?: ProblemFieldError[], options: { status?: number; headers?: Record<string, string> } = {}) {
    super(detail);
    this.name = 'ApiError';
    this.problem = makeProblem(code, detail, errors, options.status);
    this.headers = options.headers ?? {};
  }
}

export function sendProblem(reply: FastifyReply, problem: Problem, headers: Record<string, string> = {}): FastifyReply {
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  return reply.code(problem.status).type('application/problem+json').send(JSON.stringify(problem));
}

export function invalidParameter(param: string, message: string): ApiError {
  return new ApiError('INVALID_PARAMETER', `${param}: ${message}`, [{ param, message }]);
}
