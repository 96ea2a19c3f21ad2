package org.jwarp.disni;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.ibm.darpc.DaRPCClientEndpoint;
import com.ibm.darpc.DaRPCClientGroup;
import com.ibm.darpc.DaRPCFuture;
import com.ibm.darpc.DaRPCMessage;
import com.ibm.darpc.DaRPCProtocol;
import com.ibm.darpc.DaRPCServerEndpoint;
import com.ibm.darpc.DaRPCServerEvent;
import com.ibm.darpc.DaRPCServerGroup;
import com.ibm.darpc.DaRPCService;
import com.ibm.darpc.DaRPCStream;
import com.ibm.disni.RdmaServerEndpoint;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * DaRPC 1.9's own API over jwarp-disni, checking what its example client does not: every response
 * carries the value the service computed from its request, one at a time and with a full pipeline.
 */
class DaRpcApiTest {

    /**
     * A response's wait. DaRPC 1.9's {@code DaRPCFuture.get(timeout, unit)} reads {@code timeout}
     * as milliseconds whatever {@code unit} says ({@code DaRPCClientEndpoint._pollUntil}), so the
     * wait is given in milliseconds.
     */
    private static final long RPC_WAIT_MS = 10_000;
    static final int QUEUE = 16;

    /** A request: a sequence number and an operand. */
    static final class Request implements DaRPCMessage {
        int seq;
        long operand;

        @Override
        public int write(ByteBuffer buffer) {
            buffer.putInt(seq).putLong(operand);
            return size();
        }

        @Override
        public void update(ByteBuffer buffer) {
            seq = buffer.getInt();
            operand = buffer.getLong();
        }

        @Override
        public int size() {
            return 12;
        }
    }

    /** A response: the request's sequence number and the service's result. */
    static final class Response implements DaRPCMessage {
        int seq;
        long result;

        @Override
        public int write(ByteBuffer buffer) {
            buffer.putInt(seq).putLong(result);
            return size();
        }

        @Override
        public void update(ByteBuffer buffer) {
            seq = buffer.getInt();
            result = buffer.getLong();
        }

        @Override
        public int size() {
            return 12;
        }
    }

    static long compute(long operand) {
        return operand * 31 + 7;
    }

    static final class Protocol implements DaRPCProtocol<Request, Response> {
        @Override
        public Request createRequest() {
            return new Request();
        }

        @Override
        public Response createResponse() {
            return new Response();
        }
    }

    static final class Service implements DaRPCService<Request, Response> {
        final AtomicInteger served = new AtomicInteger();

        @Override
        public Request createRequest() {
            return new Request();
        }

        @Override
        public Response createResponse() {
            return new Response();
        }

        @Override
        public void processServerEvent(DaRPCServerEvent<Request, Response> event) throws IOException {
            Request req = event.getReceiveMessage();
            Response resp = event.getSendMessage();
            resp.seq = req.seq;
            resp.result = compute(req.operand);
            served.incrementAndGet();
            event.triggerResponse();
        }

        @Override
        public void open(DaRPCServerEndpoint<Request, Response> endpoint) {
        }

        @Override
        public void close(DaRPCServerEndpoint<Request, Response> endpoint) {
        }
    }

    @Test
    void everyResponseCarriesTheServicesResultForItsRequest() throws Exception {
        Service service = new Service();
        DaRPCServerGroup<Request, Response> serverGroup = DaRPCServerGroup.createServerGroup(service, new long[] {0},
                1000, 0, false, QUEUE, QUEUE, QUEUE, 32);
        RdmaServerEndpoint<DaRPCServerEndpoint<Request, Response>> server = serverGroup.createServerEndpoint();
        server.bind(new InetSocketAddress("127.0.0.1", ChildJvm.freePort()), 16);
        InetSocketAddress address = (InetSocketAddress) server.getSrcAddr();
        Thread acceptor = Thread.ofPlatform().daemon().name("darpc-accept").start(() -> {
            try {
                while (true) {
                    server.accept();
                }
            } catch (IOException e) {
                // closed
            }
        });

        DaRPCClientGroup<Request, Response> clientGroup = DaRPCClientGroup.createClientGroup(new Protocol(), 100, 0,
                QUEUE, QUEUE);
        try {
            DaRPCClientEndpoint<Request, Response> client = clientGroup.createEndpoint();
            client.connect(address, 1000);
            DaRPCStream<Request, Response> stream = client.createStream();

            // one at a time
            Request req = new Request();
            Response resp = new Response();
            for (int i = 0; i < 500; i++) {
                req.seq = i;
                req.operand = i * 1_000_003L - 17;
                resp.seq = -1;
                resp.result = 0;
                DaRPCFuture<Request, Response> f = stream.request(req, resp, false);
                Response got = f.get(RPC_WAIT_MS, TimeUnit.MILLISECONDS);
                assertEquals(i, got.seq, "request " + i);
                assertEquals(compute(req.operand), got.result, "request " + i);
            }

            // a full pipeline: QUEUE requests outstanding, answers matched to their requests
            for (int round = 0; round < 20; round++) {
                List<DaRPCFuture<Request, Response>> futures = new ArrayList<>();
                List<Request> requests = new ArrayList<>();
                for (int k = 0; k < QUEUE; k++) {
                    Request r = new Request();
                    r.seq = round * QUEUE + k;
                    r.operand = (long) r.seq * r.seq;
                    requests.add(r);
                    futures.add(stream.request(r, new Response(), false));
                }
                for (int k = 0; k < QUEUE; k++) {
                    Response got = futures.get(k).get(RPC_WAIT_MS, TimeUnit.MILLISECONDS);
                    assertEquals(requests.get(k).seq, got.seq);
                    assertEquals(compute(requests.get(k).operand), got.result);
                }
            }
            assertEquals(500 + 20 * QUEUE, service.served.get());
            client.close();
        } finally {
            clientGroup.close();
            server.close();
            serverGroup.close();
            acceptor.join(5000);
        }
        assertTrue(!acceptor.isAlive(), "accept returns once the server endpoint is closed");
    }
}
