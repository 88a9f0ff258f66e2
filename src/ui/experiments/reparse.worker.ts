// "Parse as…" off the page's thread: re-reading a megabyte of pathological output takes a parser
// seconds, which on the page froze it.
import { reparseView, type ReparseView, type ReparseViewInput } from "../../experiments/reparse.ts";
import { answerRequests } from "../workers/answer-requests.ts";
import { failedReparseView } from "./reparse-runner.ts";

answerRequests<ReparseViewInput, ReparseView>(reparseView, failedReparseView);
