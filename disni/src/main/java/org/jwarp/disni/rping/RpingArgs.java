package org.jwarp.disni.rping;

/**
 * rping's options, as {@code rping} spells them: {@code -s}/{@code -c}, {@code -a} address,
 * {@code -p} port (default 7174), {@code -C} count (0: until stopped), {@code -S} size,
 * {@code -v} print the ping data, {@code -V} validate it; and {@code -t} seconds to wait for any one
 * step (default 30).
 */
record RpingArgs(boolean server, String address, int port, int count, int size, boolean verbose, boolean validate,
        int timeoutMs) {

    static final int DEFAULT_PORT = 7174;

    static RpingArgs parse(String[] argv) {
        Boolean server = null;
        String address = null;
        int port = DEFAULT_PORT;
        int count = 0;
        int size = 64;
        boolean verbose = false;
        boolean validate = false;
        int timeout = 30;
        for (int i = 0; i < argv.length; i++) {
            String a = argv[i];
            switch (a) {
                case "-s" -> server = true;
                case "-c" -> server = false;
                case "-v" -> verbose = true;
                case "-V" -> validate = true;
                case "-a" -> address = value(argv, ++i, a);
                case "-p" -> port = number(argv, ++i, a, 1, 65535);
                case "-C" -> count = number(argv, ++i, a, 0, Integer.MAX_VALUE);
                case "-S" -> size = number(argv, ++i, a, RpingData.MIN_SIZE, RpingData.MAX_SIZE);
                case "-t" -> timeout = number(argv, ++i, a, 1, 3600);
                default -> throw new IllegalArgumentException("unknown option '" + a
                        + "'; use -s | -c, -a addr, -p port, -C count, -S size, -v, -V, -t seconds");
            }
        }
        if (server == null) {
            throw new IllegalArgumentException("say -s (server) or -c (client)");
        }
        if (address == null) {
            if (!server) {
                throw new IllegalArgumentException("a client needs the server's address: -a addr");
            }
            address = "0.0.0.0";
        }
        return new RpingArgs(server, address, port, count, size, verbose, validate, timeout * 1000);
    }

    private static String value(String[] argv, int i, String option) {
        if (i >= argv.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return argv[i];
    }

    private static int number(String[] argv, int i, String option, int min, int max) {
        String v = value(argv, i, option);
        try {
            int n = Integer.parseInt(v);
            if (n < min || n > max) {
                throw new IllegalArgumentException(option + " " + v + " is out of range: " + min + ".." + max);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " wants a number, not '" + v + "'");
        }
    }
}
