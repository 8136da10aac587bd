/** `GET /metrics` in the OpenAPI document (src/api/openapi/document.ts lists it). */
import { errorAnswer } from '../openapi/answers.js';
import { textResponse, type PathItems } from '../openapi/parts.js';

export const metricsPaths: PathItems = {
  '/metrics': {
    get: {
      summary:
        "Prometheus metrics of this process (deputy_*, Node's process_* and nodejs_*); off unless metrics.enabled or DEPUTY_METRICS=1",
      responses: {
        '200': textResponse(
          'Prometheus text exposition format 0.0.4 (`text/plain; version=0.0.4`)',
          'text/plain',
        ),
        '401': errorAnswer('Auth is on and the bearer token is missing or not valid'),
        '404': errorAnswer('Metrics are off'),
      },
    },
  },
};
