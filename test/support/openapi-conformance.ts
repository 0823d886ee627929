import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Checks response bodies against the schemas an OpenAPI 3.1 document gives them, formats
 * included (date-time, …): the document is generated from the codecs, and this is what keeps
 * it honest about what the service really sends.
 */
export function openApiConformance(document: unknown): (path: string, method: string, status: number, body: unknown) => string | null {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema(document as object, 'openapi');
  const escape = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');
  return (path, method, status, body) => {
    const pointer = ['paths', path, method.toLowerCase(), 'responses', String(status), 'content', 'application/json', 'schema'].map(escape).join('/');
    const validate = ajv.getSchema(`openapi#/${pointer}`);
    if (!validate) return `no schema documented for ${method.toUpperCase()} ${path} ${status}`;
    return validate(body) ? null : `${method.toUpperCase()} ${path} ${status}: ${JSON.stringify(validate.errors).slice(0, 600)}`;
  };
}

/** Checks a body a receiver got against the document's `webhooks.<name>.post` request schema. */
export function openApiWebhookConformance(document: unknown): (name: string, body: unknown) => string | null {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema(document as object, 'openapi');
  return (name, body) => {
    const validate = ajv.getSchema(`openapi#/webhooks/${name}/post/requestBody/content/application~1json/schema`);
    if (!validate) return `no webhook ${name} documented`;
    return validate(body) ? null : `webhook ${name}: ${JSON.stringify(validate.errors).slice(0, 600)}`;
  };
}
