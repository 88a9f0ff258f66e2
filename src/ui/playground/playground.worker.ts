// Parses the playground's output off the page's thread: a pasted megabyte streamed one character
// at a time takes a parser hundreds of milliseconds, which on the page would freeze typing.
import type { PlaygroundInput, PlaygroundResult } from "../../experiments/playground-parse.ts";
import { answerRequests } from "../workers/answer-requests.ts";
import { failedPlaygroundResult } from "./playground-runner.ts";
import { runPlaygroundInput } from "./playground-with-template.ts";

answerRequests<PlaygroundInput, PlaygroundResult>(runPlaygroundInput, failedPlaygroundResult);
