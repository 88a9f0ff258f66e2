// Parses the playground's output off the page's thread: a pasted megabyte streamed one character
// at a time takes a parser hundreds of milliseconds, which on the page would freeze typing.
// Once the person chooses "Derived from a pasted chat template", the worker warms its derivation
// up (derivation-warm-up.ts), one template per task after the reply, while the person pastes: the
// pasted template's derivation then runs warm.
import { TEMPLATE_PROTOCOL, type PlaygroundInput, type PlaygroundResult } from "../../experiments/playground-parse.ts";
import { stepwiseWarmUp } from "../../engine/templates/derivation-warm-up.ts";
import { answerRequests } from "../workers/answer-requests.ts";
import { failedPlaygroundResult } from "./playground-runner.ts";
import { runPlaygroundInput } from "./playground-with-template.ts";

const derivationWarmUp = stepwiseWarmUp();

answerRequests<PlaygroundInput, PlaygroundResult>((input) => {
  const result = runPlaygroundInput(input);
  if (input.protocol === TEMPLATE_PROTOCOL) derivationWarmUp.start();
  return result;
}, failedPlaygroundResult);
