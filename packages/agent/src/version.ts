/** The agent's version, reported to the server in its hello. */
export const AGENT_VERSION = '0.1.0';
