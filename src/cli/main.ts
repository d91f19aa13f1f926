console.error('dpsynth: the command line is not built yet.');
process.exit(1);
