package com.ibm.disni.util;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The logger DiSNI's classes and programs log through: slf4j's logger named "com.ibm.disni". */
public class DiSNILogger {
    private static Logger logger;

    public DiSNILogger() {
    }

    public static synchronized Logger getLogger() {
        if (logger == null) {
            logger = LoggerFactory.getLogger("com.ibm.disni");
        }
        return logger;
    }
}
