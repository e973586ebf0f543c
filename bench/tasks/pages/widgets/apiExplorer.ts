/**
 * An API explorer: Swagger UI 5 on an inline OpenAPI document. Calling an operation takes expanding it,
 * "Try it out", filling its path parameter and "Execute". The verdict is the request Swagger UI sends,
 * seen by its requestInterceptor.
 */
import { WORDS, type Rng } from '../../random.js';
import type { TaskDef } from '../../types.js';
import { js, shell } from '../shell.js';
import { css, script } from './assets.js';

const OPERATIONS = [
  { path: '/pets/{petId}', param: 'petId', summary: 'Find a pet by its id', tag: 'pets', type: 'integer' },
  { path: '/orders/{orderId}', param: 'orderId', summary: 'Find a purchase order', tag: 'store', type: 'integer' },
  { path: '/users/{username}', param: 'username', summary: 'Get a user by user name', tag: 'users', type: 'string' },
  { path: '/tags/{tagName}', param: 'tagName', summary: 'Get the items with a tag', tag: 'pets', type: 'string' },
] as const;

export interface ApiSpec {
  operation: number;
  value: string;
}

/** The OpenAPI document: every operation is a GET with one path parameter, plus a list operation without one. */
function openApi() {
  const paths: Record<string, unknown> = {
    '/pets': { get: { tags: ['pets'], summary: 'List all pets', parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer' } }], responses: { 200: { description: 'A list of pets' } } } },
  };
  for (const op of OPERATIONS) {
    paths[op.path] = {
      get: {
        tags: [op.tag],
        summary: op.summary,
        parameters: [{ name: op.param, in: 'path', required: true, schema: { type: op.type } }],
        responses: { 200: { description: 'Found' }, 404: { description: 'Not found' } },
      },
    };
  }
  return { openapi: '3.0.3', info: { title: 'Pet Store', version: '1.0.0' }, servers: [{ url: '/api' }], paths };
}

const swagger: TaskDef<ApiSpec> = {
  id: 'real-swagger-ui',
  category: 'api explorer',
  policy: 'apiCall',
  summary: 'Swagger UI 5: expand a GET operation, "Try it out", fill the path parameter, "Execute"; verdict from the request sent',
  generate: (rng: Rng) => {
    const operation = rng.int(0, OPERATIONS.length - 1);
    return { operation, value: OPERATIONS[operation]!.type === 'integer' ? String(rng.int(2, 999)) : rng.pick(WORDS) };
  },
  render: (spec, { episode }) => {
    const op = OPERATIONS[spec.operation]!;
    const expected = `/api${op.path.replace(`{${op.param}}`, spec.value)}`;
    return shell({
      title: 'Pet Store API',
      episode,
      instruction: `In the API explorer, call GET ${op.path} with ${op.param} ${spec.value}: open the operation, press "Try it out", fill in ${op.param}, then press "Execute".`,
      body: `${css('swagger-ui-dist/swagger-ui.css')}${script('swagger-ui-dist/swagger-ui-bundle.js')}<div id="swagger"></div>`,
      script: `
SwaggerUIBundle({
  spec: ${js(openApi())},
  dom_id: '#swagger',
  requestInterceptor: (request) => {
    const url = new URL(request.url, location.href);
    if (url.pathname.startsWith('/api/')) report(request.method === 'GET' && url.pathname === ${js(expected)}, 'called ' + request.method + ' ' + url.pathname);
    return request;
  },
});`,
    });
  },
};

export const API_TASKS: TaskDef[] = [swagger];
