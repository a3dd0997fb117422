import { parse as parseYaml } from 'yaml';
import { PROTOBUF, ProtobufError, decodeObject } from './protobuf.js';
import { HttpError } from './types.js';

/**
 * A request body by its content type: JSON, YAML (server-side apply accepts both) or the
 * Kubernetes protobuf envelope (see protobuf.ts for the kinds it reads).
 */
export function decodeBody(body: Buffer, contentType: string): unknown {
  if (body.length === 0) return undefined;
  const type = contentType.split(';')[0]!.trim();
  if (type === PROTOBUF) {
    try {
      return decodeObject(body);
    } catch (error) {
      if (error instanceof ProtobufError) throw new HttpError(415, 'UnsupportedMediaType', error.message);
      throw error;
    }
  }
  const text = body.toString('utf8');
  if (type === 'application/apply-patch+yaml' || type === 'application/yaml') {
    try {
      return parseYaml(text) as unknown;
    } catch (error) {
      throw new HttpError(
        400,
        'BadRequest',
        `error converting YAML to JSON: yaml: ${(error as Error).message}`,
      );
    }
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HttpError(
      400,
      'BadRequest',
      `couldn't get version/kind; json parse error: ${(error as Error).message}`,
    );
  }
}
