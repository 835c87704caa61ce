#!/usr/bin/env node
import { hideBin } from "yargs/helpers";
import { main } from "./main.js";

process.exitCode = await main(hideBin(process.argv));
