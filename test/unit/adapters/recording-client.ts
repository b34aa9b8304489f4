/**
 * @module recording-client
 * Test helper: a stand-in for an AWS SDK client whose `send` records every command and answers
 * with `answer(command)`, for suites that check the exact requests an adapter makes.
 */

/** The recorded commands and the client to hand the adapter (typed as whatever it expects). */
export const recordingClient = (answer: (command: object) => unknown): { sent: object[]; client: never } => {
  const sent: object[] = [];
  return {
    sent,
    client: {
      send: async (command: object) => {
        sent.push(command);
        return answer(command);
      },
    } as never,
  };
};
