// Stands in for chalk's colour detection (`#supports-color`) in the bundle. codexbar decides when to colour
// and gives every Chalk instance its level, so chalk's own detection, which loads node:tty and probes the
// terminal at start-up, is never used.
export default { stdout: false, stderr: false };
