// Parses the playground's output off the page's thread: a pasted megabyte streamed one character
// at a time takes a parser hundreds of milliseconds, which on the page would freeze typing.
import { runPlayground, type PlaygroundInput, type PlaygroundResult } from "../../experiments/playground-parse.ts";
import { answerRequests } from "../workers/answer-requests.ts";
import { failedPlaygroundResult } from "./playground-runner.ts";

answerRequests<PlaygroundInput, PlaygroundResult>(runPlayground, failedPlaygroundResult);
