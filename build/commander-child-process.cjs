// Stands in for `node:child_process` inside commander in the bundle. Commander only spawns to run
// executable subcommands, which codexbar has none of, yet its require loads child_process (and net and
// dgram with it) on every run; the getter loads the real module if a spawn ever happens.
'use strict';
module.exports = {
  get spawn() {
    return require('node:child_process').spawn;
  },
};
