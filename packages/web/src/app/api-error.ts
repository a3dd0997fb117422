// The API's error document, read for display, lives with the form tools in ui/ (ui imports nothing
// from app/); this path stays for the callers that still import it from here.
export * from '../ui/api-error';
