export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';
export interface ValidationError {
  field: string;
  message: string;
  reason: string;
}
export interface ValidationResult {
  errors: ValidationError[];
  unknownFields: string[];
}
export function validateObject(_obj: unknown, _opts: { fieldValidation: FieldValidation }): ValidationResult {
  return { errors: [], unknownFields: [] };
}
