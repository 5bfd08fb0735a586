"""Several real minerva-server instances on one private PostgreSQL, with real nginx in front:
what the README's "Running several instances" describes, on loopback ports."""
from concurrent.futures import ThreadPoolExecutor

from conftest import APPS, RunningServer
from nginx import Nginx
from postgres import PostgresCluster

# Room for the deepest stacks the concurrency and crash tests build (a MiB a session, so the
# memory budget holds 2,000 of them); no rate limit, since the tests hammer single sessions.
ARGUMENTS = ("--app", str(APPS / "basic.json"), "--rate-limit", "0", "--max-session-bytes", "1048576", "--max-sessions", "2000")


class Deployment:
    """`count` instances on a PostgreSQL cluster of their own, and nginx round-robin over them."""

    def __init__(self, count=3):
        self.postgres = PostgresCluster.create()
        self.instances, self.nginx = [], None
        try:
            # all at once, as a deployment starts them: the schema is created under a lock
            with ThreadPoolExecutor(max_workers=count) as pool:
                starting = [pool.submit(self.start_instance) for _ in range(count)]
            self.instances = [future.result() for future in starting if not future.exception()]
            for future in starting:
                if future.exception():
                    raise future.exception()
            self.nginx = Nginx(self.instances)
        except BaseException:
            self.close()
            raise

    def start_instance(self):
        return RunningServer(*ARGUMENTS, "--store", self.postgres.url())

    def close(self):
        """Stops nginx, the instances and the database; the instances' exit codes, in order."""
        if self.nginx:
            self.nginx.stop()
        codes = [instance.stop() for instance in self.instances]
        self.postgres.cleanup()
        return codes

    def logs(self):
        return "\n".join(f"-- instance {index} ({instance.url}):\n" + "".join(instance.log[-40:])
                         for index, instance in enumerate(self.instances)) + self.postgres.log_tail()
