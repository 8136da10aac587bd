/** Reading a tool's arguments: a wrong type or a missing value is a ToolError naming it. */
import { ToolError } from './tool.js';

export function requiredString(
  args: Record<string, unknown>,
  name: string,
  options: { allowEmpty?: boolean } = {},
): string {
  const value = args[name];
  if (typeof value !== 'string') throw new ToolError(`argument '${name}' must be a string`);
  if (value === '' && options.allowEmpty !== true) {
    throw new ToolError(`argument '${name}' must not be empty`);
  }
  return value;
}

export function optionalString(args: Record<string, unknown>, name: string): string | undefined {
  const value = args[name];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new ToolError(`argument '${name}' must be a string`);
  return value;
}

export function optionalBoolean(args: Record<string, unknown>, name: string): boolean | undefined {
  const value = args[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw new ToolError(`argument '${name}' must be true or false`);
  return value;
}

export function optionalPositiveInteger(
  args: Record<string, unknown>,
  name: string,
): number | undefined {
  const value = args[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new ToolError(`argument '${name}' must be a positive integer`);
  }
  return value;
}
