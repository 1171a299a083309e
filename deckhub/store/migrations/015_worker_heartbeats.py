"""Step 015: queue workers' heartbeats.

Each worker process writes its row every few seconds; a chunk held by a worker whose heartbeat
stopped is queued again within a minute instead of after its ten-minute lease. The table as it was
at this step (never today's models)."""
import peewee as pw


def migrate(migrator, database, fake=False, **kwargs):
    @migrator.create_model
    class WorkerHeartbeat(pw.Model):
        id = pw.AutoField()
        worker = pw.CharField(max_length=120, unique=True)
        started_at = pw.DateTimeField()
        last_seen = pw.DateTimeField(index=True)
        holding_kind = pw.CharField(max_length=20, null=True)
        holding_id = pw.IntegerField(null=True)

        class Meta:
            table_name = "worker_heartbeat"
            legacy_table_names = False  # index names as today's models make them (worker_heartbeat_last_seen)


def rollback(migrator, database, fake=False, **kwargs):
    migrator.remove_model("worker_heartbeat")
